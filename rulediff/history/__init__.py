"""A rule's and a glossary term's history, read from the archive; imports the archive, never the site."""
