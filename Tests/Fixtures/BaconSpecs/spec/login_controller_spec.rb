require_relative 'helpers/fake_functional'

class FakeLoginController
  def title
    'Log in'
  end
end

describe 'Login screen' do
  tests FakeLoginController

  it 'shows its title' do
    controller.title.should.equal 'Log in'
  end

  describe 'after a tap' do
    it 'still shows its title' do
      controller.title.should == 'Log in'
    end
  end
end
