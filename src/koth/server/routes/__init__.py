"""HTTP and WebSocket routes, one module per resource; they call the service layer only."""
