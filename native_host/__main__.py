import sys

from native_host.host import main

raise SystemExit(main(sys.argv))
