"""`bua demo`: the offline model, the recruiting back office and a browser, wired end to end."""
