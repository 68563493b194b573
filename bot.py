"""Entry point: read the settings and run Caedes Bot."""

import sys

from caedes_bot.settings import Settings


def main() -> int:
    settings = Settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "Caedes Bot: no Discord token. Set CAEDES_DISCORD_TOKEN in the environment "
            "or in a .env file (see README.md).",
            file=sys.stderr,
        )
        return 2
    print("Caedes Bot: the Discord client is not part of this build yet.", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
