"""Language tools over text: Japanese words, their readings and their English glosses."""
