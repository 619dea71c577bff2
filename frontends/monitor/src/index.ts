// The monitors' shared screens. Import a part by its subpath (@lws/fe-monitor/accounts, /activity,
// /reports, /integrations): each remote that imports them builds them in; only @lws/fe-ui is a shared singleton.
export {};
