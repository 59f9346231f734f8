"""`vora security audit`: what an attacker could use on an install, found offline; one more client of the
doctor's check engine (docs/security.md, "How it is built").
"""
