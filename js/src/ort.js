/**
 * The ONNX Runtime module for this environment: `onnxruntime-node` in Node.js, `onnxruntime-web` elsewhere.
 * Pass your own (`ModelBot.create({ort})`) to choose a build, a WebGPU backend or a CDN copy.
 * @module
 */

/**
 * The ONNX Runtime module this environment runs (a peer dependency: install the one you use).
 * @returns {Promise<any>}
 */
export async function loadOrt() {
  const inNode = typeof process !== 'undefined' && Boolean(process.versions?.node);
  const name = inNode ? 'onnxruntime-node' : 'onnxruntime-web';
  try {
    return await import(/* @vite-ignore */ name);
  } catch (error) {
    throw new Error(`shithead-bots needs ${name} (npm install ${name}), or pass your own as {ort}: ${/** @type {Error} */ (error).message}`);
  }
}
