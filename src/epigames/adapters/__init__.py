"""Adapters to reinforcement-learning libraries: PettingZoo (AEC) and OpenSpiel.

The submodules `pettingzoo` and `openspiel` import their libraries (the `rl` extra);
`actions` and `encoding` need only numpy.
"""
