"""The JSON API: its schemas (``schemas``) and their declaration with spectree (``spec``)."""
