"""What a reader sees of an Alignment: notes, Markdown, HTML, JSON; imports the matcher, never the archive."""
