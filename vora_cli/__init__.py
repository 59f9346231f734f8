"""vora: the operator toolkit for Vora installs."""

# The one place the version lives: pyproject.toml reads it (`[tool.setuptools.dynamic]`), and
# `vora --version`, `backup create`'s `createdBy` and SARIF's tool version print it. A release
# changes this line and adds its section to CHANGELOG.md (docs/release.md).
__version__ = "0.1.0"
