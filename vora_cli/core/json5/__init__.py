"""JSON5: the parser (`parser`), plain-value helpers (`values`) and the lossless document editor (`document`)."""
