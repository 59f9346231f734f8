"""A stand-in for the pip bootstrap script ansible-test downloads from its own file server (not a
package registry, so not reachable from CI): it installs the same pip into the empty virtual
environment ansible-test made for a sanity test, from the package index pip is set up with.

ansible-test runs it as `python get_pip_X_Y.py [pip options] pip==X.Y --no-setuptools --no-wheel`
(ansible_test/_util/target/setup/requirements.py: bootstrap); .ci/run copies it to the cache
path ansible-test reads first, ~/.ansible/test/cache/get_pip_X_Y.py.
"""

import subprocess
import sys

if __name__ == "__main__":
    args = [arg for arg in sys.argv[1:] if arg not in ("--no-setuptools", "--no-wheel")]
    subprocess.check_call([sys.executable, "-m", "ensurepip", "--default-pip"])
    subprocess.check_call([sys.executable, "-m", "pip", "install", *args])
