"""vora's own preferences (docs/settings.md): `resolve` reads them in precedence order, `edit` writes them."""
