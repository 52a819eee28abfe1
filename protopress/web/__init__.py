"""protopress in the browser: small local pages served by Starlette and uvicorn.

    server    the gate (Host, session cookie, Origin, bounded bodies), the static
              files of the package, listening and the URL
    faces     catalog faces drawn to PNG by the generators, cached
    solo      the solo companion (`protopress solo GAME --web`), on the solo engine
    table     the playtest table (`protopress play GAME --web`): any game of the
              engine contract against the bots, drawn from the seat's view
    preview   the live preview of a catalog (`protopress preview CATALOG`)

Every page is bound to 127.0.0.1 unless asked otherwise; the random token of
the printed URL, new each start, is traded on the first visit for a session
cookie that every later request needs. Static files come only from
`protopress/web/static`; the preview serves nothing from outside its catalog's
folder. The pages are plain HTML, CSS and JavaScript: no build step, no CDN.
"""
