"""What the gateway injects from the workspace bootstrap files, computed offline (spec ``context.md``).

Every number here must equal the gateway's (JavaScript's text rules: ``core/text``). The package,
by concern:

- ``caps``: the two caps and their source (which workspace an agent uses: ``core/agents``);
- ``files``: which bootstrap files, in which order, and how each is read (or why it is missing);
- ``budget``: the per-file trim, the budget clamp, the walk, and the injected text;
- ``lines``: kept and dropped line ranges of a truncated file, and the headings lost;
- ``report``: the ``ContextReport`` (status, causes, totals);
- ``skills``: the skills listed in the prompt.

Import from the module that holds a name: this package re-exports nothing (one home per
concept), so importing one module (``vora doctor`` needs ``workspace`` alone) loads only what it
imports itself.
"""
