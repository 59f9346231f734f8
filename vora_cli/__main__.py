"""`vora` and `python -m vora_cli`."""

from __future__ import annotations


def main() -> None:
    from vora_cli.cli.app import app

    app(prog_name="vora")


if __name__ == "__main__":
    main()
