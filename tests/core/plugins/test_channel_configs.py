"""A plugin manifest's `channelConfigs`: what the gateway's manifest reader keeps (openclaw 2026.4.12,
`normalizeChannelConfigs`), which plugin's schema a channel gets (`collectChannelSchemaMetadata`),
and the defaults its ajv fills in before the audit reads the config (`useDefaults`). The gateway's
verdicts on installs are in validate_verdicts.json (`chancfg-*`) and the security states
(`channel-plugin-*`)."""

from __future__ import annotations

import copy

from vora_cli.core.config.schema_defaults import with_defaults
from vora_cli.core.plugins.channel_schemas import channel_configs, channel_schemas

OPEN = {"type": "object", "properties": {"groupPolicy": {"type": "string", "default": "open"}}}
CLOSED = {"type": "object", "properties": {"groupPolicy": {"type": "string", "default": "allowlist"}}}


def test_an_entry_without_an_object_schema_is_left_out_and_ids_are_trimmed() -> None:
    raw = {"channelConfigs": {" mine ": {"schema": OPEN}, "loose": {"label": "x"}, "bad": {"schema": []},
                              "  ": {"schema": OPEN}, "odd": "text"}}
    assert channel_configs(raw) == {"mine": OPEN}
    assert channel_configs({"channelConfigs": ["mine"]}) == {}
    assert channel_configs({}) == {}


def test_the_lowest_origin_rank_wins_and_the_later_of_two_alike() -> None:
    def declaring(schema: dict[str, object]) -> dict[str, object]:
        return {"channelConfigs": {"chan": {"schema": schema}}}

    assert channel_schemas([("global", declaring(OPEN)), ("config", declaring(CLOSED))]) == {"chan": CLOSED}
    assert channel_schemas([("config", declaring(CLOSED)), ("global", declaring(OPEN))]) == {"chan": CLOSED}
    assert channel_schemas([("workspace", declaring(OPEN)), ("workspace", declaring(CLOSED))]) == {"chan": CLOSED}
    assert channel_schemas([("global", {"id": "x"})]) == {}


def test_defaults_fill_what_is_not_written_in_a_copy() -> None:
    schema = {"type": "object", "properties": {
        "groupPolicy": {"default": "open"}, "dm": {"type": "object", "properties": {"policy": {"default": "pairing"}}},
        "accounts": {"type": "object", "additionalProperties": CLOSED},
        "list": {"type": "array", "items": {"type": "object", "properties": {"on": {"default": True}}}}},
        "allOf": [{"properties": {"retries": {"default": 2}}}]}
    value = {"groupPolicy": None, "dm": {}, "accounts": {"a1": {}, "a2": {"groupPolicy": "open"}, "bad": 3},
             "list": [{}, {"on": False}]}
    before = copy.deepcopy(value)
    assert with_defaults(schema, value) == {
        "groupPolicy": None, "dm": {"policy": "pairing"}, "retries": 2,
        "accounts": {"a1": {"groupPolicy": "allowlist"}, "a2": {"groupPolicy": "open"}, "bad": 3},
        "list": [{"on": True}, {"on": False}]}
    assert value == before
    untouched = {"groupPolicy": "allowlist"}
    assert with_defaults(OPEN, untouched) is untouched
    assert with_defaults(OPEN, "text") == "text"


def test_a_keyword_of_the_wrong_type_holds_no_default() -> None:
    """A schema the validator refuses (`allOf: 5`) is reported there; filling its defaults for the
    audit neither fails nor invents one."""
    value = {"groups": {"g1": {}}}
    for schema in ({"allOf": 5}, {"allOf": True}, {"allOf": "ab"}, {"properties": [1, 2]}, {"properties": 3},
                   {"additionalProperties": True, "properties": {"groups": 7}}, {"items": 4}, 5, None, [OPEN]):
        assert with_defaults(schema, value) is value
        assert with_defaults(schema, [value]) == [value]


def test_the_first_default_of_a_key_wins_across_all_of_branches() -> None:
    schema = {"allOf": [{"allOf": [CLOSED]}, OPEN], "properties": {"groupPolicy": {"default": "disabled"}},
              "additionalProperties": {"properties": {"x": {"default": 1}}}}
    assert with_defaults(schema, {"g": {}}) == {"g": {"x": 1}, "groupPolicy": "allowlist"}


def test_wide_schemas_and_values_are_filled_in_one_pass() -> None:
    from hang_guard import cpu_hang_guard

    branches = [{"properties": {f"k{i}": {"default": i}}} for i in range(3000)]
    value = {f"v{i}": {} for i in range(3000)}
    with cpu_hang_guard("3,000 allOf branches over 3,000 keys"):
        filled = with_defaults({"allOf": branches}, value)
    assert len(filled) == 6000 and filled["k2999"] == 2999
