"""The hypothesis profiles, chosen by the HYPOTHESIS_PROFILE environment variable.

"dev" (the default, what `make test` runs) tries few examples per property so the suite stays quick
on a laptop; "ci" (what .ci/run runs) tries what each test asks for (hypothesis' default of 100
where a test does not say). A test's own @settings(max_examples=N) is the thorough figure; under
"dev" it is capped at DEV_MAX_EXAMPLES by conftest.py, so a new property test is fast in
development without thinking about it. The schemathesis fuzz (tests marked `fuzz`) sends
FUZZ_EXAMPLES generated requests per API operation and persona.
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILES = ("dev", "ci")
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or "dev"
if HYPOTHESIS_PROFILE not in PROFILES:
    raise RuntimeError(f"HYPOTHESIS_PROFILE must be one of {', '.join(PROFILES)}, not {HYPOTHESIS_PROFILE!r}")
DEV_MAX_EXAMPLES = 10
FUZZ_EXAMPLES = 20 if HYPOTHESIS_PROFILE == "ci" else 5

# No deadline in either: on a busy machine (or beside xdist's other processes) an example's time
# says nothing about the code, and tests never assert wall-clock times.
settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=DEV_MAX_EXAMPLES)
settings.load_profile(HYPOTHESIS_PROFILE)
