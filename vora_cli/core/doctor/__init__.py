"""`vora doctor`: pure checks over an install snapshot, and the fixes `--fix` may apply."""
