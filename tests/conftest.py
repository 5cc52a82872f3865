import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# No wall-clock assertion in the default run: a busy 2-core machine can take an example
# past hypothesis's 200 ms deadline without anything being wrong.
settings.register_profile("streamblocks", deadline=None)
# CI draws the same examples every run (a failure there is the change's, not the draw's);
# a developer's run draws new ones each time, and finds what CI's draw does not.
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "streamblocks")
