from app.ui.app import main

raise SystemExit(main())
