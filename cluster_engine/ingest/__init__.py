"""Build a cluster snapshot from what an operator captured: the Kafka tools' own outputs, or a
native YAML/JSON snapshot.

``load_snapshot(path)``: a directory of captures is assembled; a ``.yaml``/``.yml``/``.json``
file is read as a native snapshot. One reader module per tool; ``detect`` recognises each
file's kind from its content; ``assemble`` merges the facts and refuses contradictions.
"""
