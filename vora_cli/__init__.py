"""vora: the operator toolkit for Vora installs."""

__version__ = "0.1.0"
