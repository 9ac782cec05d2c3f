from installer.cli import main

raise SystemExit(main())
