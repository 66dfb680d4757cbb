"""An example third-party check package for mcpscan."""

__version__ = "0.1.0"
