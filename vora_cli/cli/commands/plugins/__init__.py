"""`vora plugins`: install, link, list, inspect, enable/disable, use, uninstall, update, init."""

COMMANDS = ("install", "list", "inspect", "enable", "disable", "use", "uninstall", "update", "init")  # in help order
