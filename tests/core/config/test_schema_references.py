"""A plugin's `configSchema` that refers to another document (`$ref` to a file or a URL) is not a
schema vora compiles: the validator fetches nothing (vora reads no network and no file a manifest
names; the gateway's validator refuses a reference it cannot resolve), and the verdict is never
remembered as "compiles", so a later run says the same."""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

import pytest

from vora_cli.core.config.gateway import InvalidSchema, check_schema


@pytest.fixture
def server():
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"type": "object"}')

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}", hits
    httpd.shutdown()


def test_an_external_reference_is_refused_and_never_fetched(tmp_path: Path, server, monkeypatch) -> None:
    monkeypatch.setenv("VORA_HOME", str(tmp_path / "home"))
    base, hits = server
    (tmp_path / "ext.json").write_text('{"type": "object"}')
    for ref in (f"file://{tmp_path / 'ext.json'}", f"{base}/schema.json", f"{base}/s.json#/definitions/a"):
        for _ in range(2):  # a second run is not answered from the verdict cache
            with pytest.raises(InvalidSchema):
                check_schema({"type": "object", "properties": {"a": {"$ref": ref}}})
    assert hits == []
    check_schema({"$ref": "#/definitions/a", "definitions": {"a": {"type": "object"}}})  # inside: fine
