"""The service layer: everything routes may call; it alone touches rules and storage."""
