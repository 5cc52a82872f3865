"""``streamblocks view``: a local web page that shows a stream or an agent run, live.

The server (Starlette + uvicorn, the ``[view]`` extra) processes the input once and sends
the run to the page as AG-UI events over server-sent events, encoded by the project's
own AG-UI output (:mod:`streamblocks.ext.agui`). The page is static files in ``static/``:
HTML, CSS and standard web components, no build step, nothing fetched from elsewhere.
Importing this package needs no extra; :mod:`streamblocks.view.server` does. The
command's arguments are :mod:`streamblocks.cli.commands.view`'s.
"""
