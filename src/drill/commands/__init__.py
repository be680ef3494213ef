"""One module per `drill` subcommand. Each imports only click at module level; heavy imports go inside
the command function so `drill --help` stays light."""
