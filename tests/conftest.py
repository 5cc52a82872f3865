import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# No wall-clock assertion in the default run: a busy 2-core machine can take an example
# past hypothesis's 200 ms deadline without anything being wrong.
settings.register_profile("streamblocks", deadline=None)
settings.load_profile("streamblocks")
