/**
 * The console's HTML page (README "Console"), served at `/console`: a shell that loads the console's own stylesheet
 * and script from `/console/` (no inline script or style, so the Content-Security-Policy needs no 'unsafe-inline'
 * and no hash) and shows a notice when scripts are off.
 * @module
 */

/** The page, byte for byte as served. */
export const CONSOLE_HTML: string = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Integrator API · console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/app.css">
<script src="/console/app.js" defer></script>
</head>
<body>
<div id="app"><main id="main"><noscript>The console needs JavaScript. / Konsola wymaga JavaScriptu.</noscript></main></div>
</body>
</html>
`;
