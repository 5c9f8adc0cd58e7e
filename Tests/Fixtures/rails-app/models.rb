# frozen_string_literal: true

# The models. Foreign keys may be null but must point at an existing row
# (Rails' own "must exist" message); nothing cascades on destroy.
class ApplicationRecord < ActiveRecord::Base
  self.abstract_class = true

  # Adds "must exist" to `association` when its foreign key is set but names no row.
  def self.validates_reference(association)
    reflection = reflect_on_association(association)
    validate do
      key = self[reflection.foreign_key]
      next if key.nil? || reflection.klass.exists?(key)

      errors.add(association, :blank, message: "must exist")
    end
  end
end

class Person < ApplicationRecord
  has_many :projects
  validates :first_name, presence: true
  validates :type, inclusion: { in: %w[Person Admin] }, allow_nil: true

  # Rails leaves the STI column out of JSON; this API shows it (null for plain people).
  def serializable_hash(options = nil)
    super.merge("type" => type)
  end
end

# Single-table inheritance: people whose `type` is "Admin".
class Admin < Person
end

class Project < ApplicationRecord
  belongs_to :person, optional: true
  has_many :tasks
  validates :name, presence: true
  validates_reference :person
end

class Task < ApplicationRecord
  belongs_to :project, optional: true
  validates :title, presence: true
  validates_reference :project
end
