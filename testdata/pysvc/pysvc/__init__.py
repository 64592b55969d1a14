"""A small user service: accounts, sessions and the HTTP handlers over them."""
