// A Shithead bot in Node.js, no framework: the JSON bot protocol (docs/protocol.md) over node's own http module.
// It plays the lowest rank it may (all its cards of that rank), else the first legal action (pick up, flip):
// the same bot as examples/bots/my_bot.py, so the two rate alike (tests/agents/test_own_bots.py).
//   node examples/bots/node_bot.js 8765          then: shithead bench http://127.0.0.1:8765/v1/bots/lowest
const http = require("http");

const RANKS = "23456789TJQKAX"; // low to high; X is the Joker
const NAME = "lowest";
const port = Number(process.argv[2] || 8765);

function choose(view) {
  const plays = view.legal_actions.filter((a) => a.kind === "play");
  if (plays.length === 0) return view.legal_actions[0];
  const key = (a) => RANKS.indexOf(a.rank) * 100 - a.count;
  return plays.reduce((best, a) => (key(a) < key(best) ? a : best));
}

function send(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

http
  .createServer((req, res) => {
    const path = req.url.split("?")[0];
    if (req.method === "GET" && path === "/v1/health") return send(res, 200, { protocol: 1, status: "ok" });
    if (req.method === "GET" && path === "/v1/bots") return send(res, 200, { protocol: 1, bots: [{ name: NAME }] });
    if (req.method !== "POST" || path !== `/v1/bots/${NAME}/act`) {
      return send(res, 404, { protocol: 1, error: { code: "not_found", message: `no ${req.method} ${path}` } });
    }
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      let view;
      try {
        view = JSON.parse(body);
      } catch (error) {
        return send(res, 422, { protocol: 1, error: { code: "invalid_view", message: String(error) } });
      }
      if (!Array.isArray(view.legal_actions) || view.legal_actions.length === 0) {
        return send(res, 409, { protocol: 1, error: { code: "no_legal_action", message: "nothing to decide" } });
      }
      send(res, 200, { protocol: 1, bot: NAME, action: choose(view) });
    });
  })
  .listen(port, "127.0.0.1", () => console.log(`serving ${NAME} on http://127.0.0.1:${port}/v1/bots/${NAME}`));
