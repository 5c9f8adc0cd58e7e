# frozen_string_literal: true

# Boots the fixture app on a fresh SQLite database in $RAILS_STATE_DIR and seeds it.
require_relative "application"
Rails.application.initialize!

require_relative "schema"
require_relative "models"
require_relative "seeds"
require_relative "listing"
require_relative "controllers"
require_relative "routes"
require_relative "fixture_control"
require_relative "idempotency_keys"

Seeds.reset!

use FixtureControl, File.join(STATE_DIR, "requests.jsonl")
use IdempotencyKeys
run Rails.application
