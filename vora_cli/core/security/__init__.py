"""`vora security audit`: what an attacker could use on an install, found offline (docs/security.md).

One more client of the doctor's check engine (`core/doctor`): each check is a pure function
`Install -> CheckResult` whose locations are `Finding`s; the doctor's runner runs and scrubs
them, its CI formats render them, its fixes apply them.
"""
