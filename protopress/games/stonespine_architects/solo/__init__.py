"""The Stonespine Architects solo companion's step engine, shared by every front end.

    names     answers as typed: names, counts and numbers (Reject says why not)
    book      the catalog as the session reads it
    answers   the check of each kind of answer (the same for every front end)
    engine    the steps of a solo game, the rival, the status and the result
    saves     the save format, where saves live, reading and guarding them
    history   the finished games, kept beside the saves

The terminal front end is `solo_session`; the web one is `protopress.web.solo`.
A front end asks `Engine.question`, passes the answer's text to `Engine.answer`
and saves; the text is what a player would type, so every front end records the
same answers and a game saved in one resumes in the other.
"""
