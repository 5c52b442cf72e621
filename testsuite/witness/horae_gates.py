# SPDX-License-Identifier: GPL-2.0-or-later
"""A pytest plugin for Slurm's python testsuite run on a harness cluster.

Some of Slurm's tests skip unless slurm.conf names a plugin by its name:
PriorityType=priority/multifactor (the sprio tests) or
SelectType=select/cons_tres (the GPU/MPS tests).  priority/hmrf serves
sprio's requests as multifactor does, and select/eunomia is cons_tres
underneath, so with Horae's plugins in place those tests are run, not
skipped: this plugin lifts exactly those two gates, at test time, by
wrapping atf.require_config_parameter.  Nothing of Slurm's is changed.

It also cancels every job a test module leaves behind, as Slurm's own
auto-config mode does at each module's end: in local-config mode Slurm's
tests leave jobs queued or running (a 4-node "sleep" among them), and
every later test then waits behind them and times out, on stock plugins
as on Horae's.  The plugin is loaded on both sides alike.
"""
import os
import sys

import pytest

# atf lives in Slurm's testsuite/python/lib, which its conftest.py adds to
# the path; the witness script passes that directory too.
sys.path.append(os.environ["HORAE_WITNESS_ATF"])
import atf  # noqa: E402

LIFTED = {
    ("PriorityType", "priority/multifactor"): "priority/hmrf",
    ("SelectType", "select/cons_tres"): "select/eunomia",
}

_require = atf.require_config_parameter


def _lifted(parameter_name, parameter_value, *args, **kwargs):
    horae = LIFTED.get((parameter_name, parameter_value))
    if horae and atf.get_config_parameter(parameter_name, quiet=True) == horae:
        atf.properties.setdefault("horae-lifted", []).append(parameter_name)
        return
    return _require(parameter_name, parameter_value, *args, **kwargs)


atf.require_config_parameter = _lifted


@pytest.fixture(scope="module", autouse=True)
def horae_clean_queue():
    """After each test module: no job of it is left."""
    yield
    atf.cancel_all_jobs(quiet=True)
