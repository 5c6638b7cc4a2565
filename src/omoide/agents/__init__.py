"""What agents ask of the memory (recall, a day, an entity, the profile, a memory's neighbours) and the MCP server that answers."""
