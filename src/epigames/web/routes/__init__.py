"""The JSON API's routers, one module per area; `web.app.create_app` includes them all.

- `meta`: health, the registered games, a game string's canonical form.
- `sessions`: start, describe and close games; frames; a person's moves.
- `pictures`: Kripke pictures, the knowledge matrix, formulas.
- `tournaments`: result files, summaries, plots, and tournament jobs.

Routes reach the app's `SessionStore` and `TournamentDir` through the dependencies in
`common`, which read them from `app.state`.
"""
