"""The observation encoding versions, one module each (``v1``, ``v2``) on a shared ``layout``.

Use them through ``shithead_env.encoding`` (``ENCODINGS``, ``get_encoding``,
``encode_knowledge``): that module is the public API and the docs generator.
"""
