"""The engine's two refusals, below every module that raises them."""


class IllegalActionError(ValueError):
    """The action is not among ``legal_actions()``; the game is unchanged."""


class StateError(ValueError):
    """A state or view mapping that does not describe a position play can reach; the message names the fault."""
