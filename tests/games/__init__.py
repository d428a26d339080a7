"""Games written only for the tests, plugged into the app through the registry (`COMPANION_GAMES`)."""
