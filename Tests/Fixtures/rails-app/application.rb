# frozen_string_literal: true

# The Rails 6.1 application object: API-only, UTC, no Gemfile (Debian's system gems).
require "rails"
require "active_record/railtie"
require "action_controller/railtie"

STATE_DIR = ENV.fetch("RAILS_STATE_DIR")
ENV["DATABASE_URL"] = "sqlite3:#{File.join(STATE_DIR, 'db.sqlite3')}"
ENV["SECRET_KEY_BASE"] ||= "rmap-test-fixture-not-a-secret"

class FixtureApp < Rails::Application
  config.root = __dir__
  config.api_only = true
  config.eager_load = false
  config.cache_classes = true
  config.consider_all_requests_local = false
  config.secret_key_base = ENV.fetch("SECRET_KEY_BASE")
  config.logger = ActiveSupport::Logger.new(File.join(STATE_DIR, "rails.log"))
  config.log_level = :info
  config.time_zone = "UTC"
  config.active_record.default_timezone = :utc
  config.active_support.deprecation = :log
end
