"""Print files from catalogs: faces from layouts, drawn on PDF and PNG surfaces,
imposed on sheets or one per page, checked by preflight."""
