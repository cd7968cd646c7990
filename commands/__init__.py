"""The click CLI: thin — parse words, call the application, render the answer."""
