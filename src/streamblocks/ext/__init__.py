"""Provider integrations: one package per provider, each importing its SDK only inside."""
