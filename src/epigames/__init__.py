"""epigames: games of imperfect information played by agents that reason with epistemic logic."""

from importlib.metadata import PackageNotFoundError, version

from epigames import native

native.install()  # before any compiled module is imported

from epigames.errors import EpigamesError  # noqa: E402

try:
    __version__ = version("epigames")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0"

__all__ = ["EpigamesError", "__version__"]
