# frozen_string_literal: true

# Tables as `rails g scaffold` would create them (id INTEGER PRIMARY KEY AUTOINCREMENT, timestamps).
ActiveRecord::Migration.verbose = false

ActiveRecord::Schema.define do
  create_table :people, force: true do |t|
    t.string :first_name
    t.string :last_name
    t.string :email
    t.date :born_on
    t.boolean :admin, default: false
    t.string :type
    t.timestamps
  end

  create_table :projects, force: true do |t|
    t.string :name
    t.decimal :budget, precision: 12, scale: 2
    t.integer :person_id, index: true
    t.date :starts_on
    t.boolean :archived, default: false, null: false
    t.timestamps
  end

  create_table :tasks, force: true do |t|
    t.string :title
    t.integer :project_id, index: true
    t.boolean :done, default: false, null: false
    t.datetime :due_at
    t.decimal :estimate
    t.timestamps
  end
end
