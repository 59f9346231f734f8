"""`vora doctor`: pure checks over an install snapshot, and the fixes `--fix` may apply."""

from vora_cli.core.doctor.model import CheckResult, DoctorReport, Evidence, Fix, read_install
from vora_cli.core.doctor.runner import CHECKS, run_doctor
from vora_cli.core.doctor_names import CHECK_IDS
from vora_cli.core.install import Install

__all__ = ["CHECKS", "CHECK_IDS", "CheckResult", "DoctorReport", "Evidence", "Fix", "Install", "read_install", "run_doctor"]
