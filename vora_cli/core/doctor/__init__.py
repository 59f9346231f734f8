"""`vora doctor`: pure checks over an install snapshot, and the fixes `--fix` may apply."""

from vora_cli.core.doctor.model import CheckResult, DoctorReport, Evidence, Fix, Install
from vora_cli.core.doctor.runner import CHECK_IDS, CHECKS, run_doctor

__all__ = ["CHECKS", "CHECK_IDS", "CheckResult", "DoctorReport", "Evidence", "Fix", "Install", "run_doctor"]
