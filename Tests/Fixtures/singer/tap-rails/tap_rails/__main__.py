"""python -m tap_rails: the same as the tap-rails command."""

from tap_rails import TapRails

TapRails.cli()
