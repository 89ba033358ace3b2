"""The version of rulediff, apart from the package face so that no module imports the face for it."""

__version__ = "0.1.0"
