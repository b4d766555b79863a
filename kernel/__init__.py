"""The shared kernel: what every layer may import, the platform's apps and the systems alike (the
import contracts' bottom layer, pyproject.toml). Ids and fields (``fields``), the error answers
(``errors``, ``api``), input checks (``input_boundary``, ``parsers``), confirmation pages
(``confirm``), keyset pages (``keyset``), rate limits (``abuse``) and the form and API renderers.
It imports no app of the project; ``config`` (settings, URLs, the ASGI and Celery apps) is the
wiring above everything and is imported by nobody."""
